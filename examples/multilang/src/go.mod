// The sample projects' sources (examples/polybench/build.py --root examples/multilang): a module of its own so that
// the instances' test files, fragments of another module, stay out of polynfi's ./... .
module polynfi.example/multilang-src

go 1.22
