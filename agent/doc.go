// Package agent runs coding agents on benchmark tasks and turns what they
// change into predictions: for every SWE-NFI task or repository instance
// and every repeat it prepares a fresh workspace (the task's code before,
// or the repository at its base commit, with nothing of the reference
// solution, the held-back tests or other runs' outputs), runs the agent's
// command in a runtime.Sandbox with a wall-time limit, token and cost
// budgets and an allow-listed environment, collects the diff it made and
// the time, tokens and cost it reports, and records everything
// atomically so that an interrupted run resumes where it stopped.
//
// Agents are command templates (Expand documents the placeholders) with a
// Reader that understands one agent's own output: Claude Code's result
// envelope, Codex's JSON events, Aider's token report, mini-SWE-agent's
// trajectory. A figure an agent does not report stays unknown (nil),
// never 0.
//
// The package never prints; progress goes through a callback. It knows
// the dataset types but nothing of grading: `polynfi eval` grades the
// predictions it writes.
//
// Source: SWE-NFI §4 (agents run five times per task, given the
// description and the code before, producing the complete code after;
// execution time and tokens recorded); SWE-PolyBench and SWE-bench
// (agents run on the repository at the base commit; predictions as
// instance_id, model_name_or_path, model_patch).
package agent
