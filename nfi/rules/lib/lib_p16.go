package lib

import "github.com/polynfi/polynfi/nfi"

// AsyncioDeprecated reports the deprecated or removed asyncio API.
//
// Source: Python 3.7, 3.9, 3.10, 3.11 and 3.12 What's New (asyncio).
var AsyncioDeprecated = &nfi.Rule{
	ID: "LIB-P16", Name: "asyncio-deprecated-api", Aspect: nfi.LibraryConstraints, Kind: nfi.Prohibited,
	Doc: nfi.Doc{
		Summary: "deprecated or removed asyncio API",
		What:    "A call of asyncio.get_event_loop() (every call counts; deprecated outside a running loop since 3.10-3.12); a reference to asyncio.coroutine (removed 3.11), asyncio.async (removed 3.7), asyncio.Task.all_tasks or asyncio.Task.current_task (removed 3.9); a loop= keyword in a call of asyncio.{sleep, gather, shield, wait_for, wait, as_completed, open_connection, start_server, open_unix_connection, start_unix_server, create_subprocess_exec, create_subprocess_shell, Queue, PriorityQueue, LifoQueue, Lock, Event, Condition, Semaphore, BoundedSemaphore} (removed 3.10). asyncio.ensure_future(loop=) is not reported: unlike the catalog text says, ensure_future, wrap_future and run_coroutine_threadsafe kept their loop parameter.",
		Why:     "The removed forms raise on current Python; get_event_loop() without a running loop warns and will create no loop in future versions.",
		Bad:     "import asyncio\n\n\ndef main():\n    loop = asyncio.get_event_loop()\n    loop.run_until_complete(asyncio.sleep(1))\n",
		Good:    "import asyncio\n\n\ndef main():\n    asyncio.run(asyncio.sleep(1))\n",
		Exempt:  "asyncio.get_running_loop() and asyncio.new_event_loop() pass.",
		Source:  "Python 3.7, 3.9, 3.10, 3.11 and 3.12 What's New (asyncio)",
		Oracle:  "custom (no Ruff rule)",
	},
	Oracle: nfi.Oracle{},
	Finish: func(p *nfi.Pass) { report(p, nil) },
}
