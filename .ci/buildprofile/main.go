// Command buildprofile ranks the actions of a Go build by the CPU time
// their commands used, from the action graph that
// `go build -debug-actiongraph=FILE` writes, and sums them by module.
//
// Usage:
//
//	go run ./.ci/buildprofile [-top N] [-modules FILE] ACTIONGRAPH.json
//
// -modules names a file of "importpath modulepath" lines (as
// `go list -deps -f '{{.ImportPath}} {{with .Module}}{{.Path}}{{else}}std{{end}}'`
// prints); without it packages are grouped by their first three path
// elements. CPU is user+system time of the action's commands (compile,
// cgo, C compiler, asm, link) in seconds; wall is TimeDone-TimeStart. On a
// shared machine compare CPU, not wall. build-profile.sh runs it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"
)

// action is the subset of cmd/go's actionJSON this tool reads.
type action struct {
	ID        int
	Deps      []int
	Mode      string
	Package   string
	TimeStart time.Time
	TimeDone  time.Time
	CmdReal   time.Duration
	CmdUser   time.Duration
	CmdSys    time.Duration
}

func main() {
	top := flag.Int("top", 25, "number of actions to list")
	cores := flag.Int("cores", 2, "idle cores of the wall-time estimate")
	modFile := flag.String("modules", "", `file of "importpath modulepath" lines`)
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: buildprofile [-top N] [-modules FILE] ACTIONGRAPH.json")
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *modFile, *top, *cores); err != nil {
		fmt.Fprintln(os.Stderr, "buildprofile:", err)
		os.Exit(1)
	}
}

func run(graph, modFile string, top, cores int) error {
	b, err := os.ReadFile(graph)
	if err != nil {
		return err
	}
	var acts []action
	if err := json.Unmarshal(b, &acts); err != nil {
		return fmt.Errorf("%s: %w", graph, err)
	}
	modOf := map[string]string{}
	if modFile != "" {
		f, err := os.Open(modFile)
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if fs := strings.Fields(sc.Text()); len(fs) == 2 {
				modOf[fs[0]] = fs[1]
			}
		}
		f.Close()
	}
	module := func(pkg string) string {
		if m, ok := modOf[pkg]; ok {
			return m
		}
		if !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
			return "std"
		}
		parts := strings.SplitN(pkg, "/", 4)
		return strings.Join(parts[:min(3, len(parts))], "/")
	}
	cpu := func(a action) time.Duration { return a.CmdUser + a.CmdSys }
	var total time.Duration
	var first, last time.Time
	byMod := map[string]time.Duration{}
	pkgsByMod := map[string]int{}
	var ran []action
	for _, a := range acts {
		if a.TimeStart.IsZero() {
			continue
		}
		if first.IsZero() || a.TimeStart.Before(first) {
			first = a.TimeStart
		}
		if a.TimeDone.After(last) {
			last = a.TimeDone
		}
		if cpu(a) == 0 {
			continue
		}
		ran = append(ran, a)
		total += cpu(a)
		m := module(a.Package)
		if a.Mode == "link" {
			m = "(link)"
		}
		byMod[m] += cpu(a)
		pkgsByMod[m]++
	}
	sort.Slice(ran, func(i, j int) bool { return cpu(ran[i]) > cpu(ran[j]) })
	fmt.Printf("actions with commands: %d, command CPU %.0f s, wall %s (first start to last done)\n",
		len(ran), total.Seconds(), last.Sub(first).Round(time.Second))
	fmt.Printf("estimated wall on %d idle cores: %s (each action takes its CPU time; the dependency graph's critical path alone: %s)\n",
		cores, simulate(acts, cores, cpu).Round(time.Second), simulate(acts, 1<<20, cpu).Round(time.Second))
	fmt.Printf("\n%-8s %-8s %-6s %s\n", "CPU s", "wall s", "mode", "package")
	for _, a := range ran[:min(top, len(ran))] {
		fmt.Printf("%-8.1f %-8.1f %-6s %s\n", cpu(a).Seconds(), a.TimeDone.Sub(a.TimeStart).Seconds(), a.Mode, a.Package)
	}
	mods := make([]string, 0, len(byMod))
	for m := range byMod {
		mods = append(mods, m)
	}
	sort.Slice(mods, func(i, j int) bool { return byMod[mods[i]] > byMod[mods[j]] })
	fmt.Printf("\n%-8s %-6s %-6s %s\n", "CPU s", "share", "pkgs", "module")
	for _, m := range mods {
		fmt.Printf("%-8.1f %5.1f%% %-6d %s\n", byMod[m].Seconds(), 100*byMod[m].Seconds()/total.Seconds(), pkgsByMod[m], m)
	}
	return nil
}

// simulate returns the makespan of the action graph on cores workers when
// each action takes its command CPU time: a ready action (all Deps done)
// starts on the first free worker, longest first. It ignores the go
// command's own work and I/O, so it is a lower bound of an idle machine's
// wall time.
func simulate(acts []action, cores int, cost func(action) time.Duration) time.Duration {
	byID := map[int]int{}
	for i, a := range acts {
		byID[a.ID] = i
	}
	waiting := make([]int, len(acts))
	users := make([][]int, len(acts))
	for i, a := range acts {
		for _, d := range a.Deps {
			if j, ok := byID[d]; ok {
				waiting[i]++
				users[j] = append(users[j], i)
			}
		}
	}
	var ready []int
	for i := range acts {
		if waiting[i] == 0 {
			ready = append(ready, i)
		}
	}
	type job struct {
		i    int
		done time.Duration
	}
	var running []job
	var now time.Duration
	for len(ready) > 0 || len(running) > 0 {
		sort.Slice(ready, func(x, y int) bool { return cost(acts[ready[x]]) > cost(acts[ready[y]]) })
		for len(running) < cores && len(ready) > 0 {
			running = append(running, job{ready[0], now + cost(acts[ready[0]])})
			ready = ready[1:]
		}
		sort.Slice(running, func(x, y int) bool { return running[x].done < running[y].done })
		j := running[0]
		running = running[1:]
		now = j.done
		for _, u := range users[j.i] {
			if waiting[u]--; waiting[u] == 0 {
				ready = append(ready, u)
			}
		}
	}
	return now
}
