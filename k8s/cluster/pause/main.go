// Command pause is the pod sandbox ("infra") process of the local test
// cluster (k8s/cluster/up.sh), which cannot pull registry.k8s.io/pause: it
// holds the pod's namespaces, reaps the zombies re-parented to it, and exits 0
// on SIGINT or SIGTERM. Built static (CGO_ENABLED=0) into a one-file image.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	sig := make(chan os.Signal, 16)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGCHLD)
	for s := range sig {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		for {
			var ws syscall.WaitStatus
			if pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); pid <= 0 || err != nil {
				break
			}
		}
	}
}
