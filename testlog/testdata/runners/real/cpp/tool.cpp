#include <cstdlib>
#include <unistd.h>
int main(int argc, char **argv) {
  int m = argc > 1 ? std::atoi(argv[1]) : 0;
  if (m == 9) sleep(5);
  return m == 9 ? 0 : m;
}
