import queue

q = queue.Queue()

while True:  # want "LOG-P02"
    item = q.get()
    if item is None:
        break

while 1:  # want "LOG-P02"
    break

while (True):  # want "LOG-P02"
    break

while "forever":  # want "LOG-P02"
    break

# near misses
running = True
while running:
    running = False

while 0:
    pass

while q.empty() is False:
    break
