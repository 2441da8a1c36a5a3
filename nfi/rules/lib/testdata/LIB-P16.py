import asyncio


@asyncio.coroutine  # want "LIB-P16"
def legacy():
    yield


def main():
    loop = asyncio.get_event_loop()  # want "LIB-P16"
    loop.run_until_complete(asyncio.sleep(1, loop=loop))  # want "LIB-P16"
    tasks = asyncio.Task.all_tasks()  # want "LIB-P16"
    lock = asyncio.Lock(loop=loop)  # want "LIB-P16"
    return tasks, lock


async def modern():
    loop = asyncio.get_running_loop()
    fut = asyncio.ensure_future(asyncio.sleep(0), loop=loop)
    await asyncio.wait_for(fut, timeout=1)
    return asyncio.all_tasks(), asyncio.current_task()


if __name__ == "__main__":
    asyncio.run(modern())
