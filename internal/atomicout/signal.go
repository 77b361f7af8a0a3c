package atomicout

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// reg holds the staged files of this process that are not renamed yet.
// While there is any, SIGINT and SIGTERM remove them before the process
// dies of the signal, as it would have without them.
var reg = registry{live: map[string]bool{}}

type registry struct {
	sync.Mutex
	live map[string]bool
	stop chan struct{} // closed to stop the watcher; nil when none runs
}

// exitSignals are the signals that remove staged files. Signals the
// process was started with ignored (a background job's SIGINT) stay
// ignored.
var exitSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// changedLocked starts the watcher when the first file is staged and stops
// it when the last one is renamed or removed. Call with reg locked.
func (r *registry) changedLocked() {
	switch {
	case len(r.live) > 0 && r.stop == nil:
		var sigs []os.Signal
		for _, s := range exitSignals {
			if !signal.Ignored(s) {
				sigs = append(sigs, s)
			}
		}
		if len(sigs) == 0 {
			return
		}
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, sigs...)
		r.stop = make(chan struct{})
		go watch(ch, r.stop)
	case len(r.live) == 0 && r.stop != nil:
		close(r.stop)
		r.stop = nil
	}
}

// watch waits for a signal on ch until stop is closed; a signal removes
// every staged file and ends the process with it.
func watch(ch chan os.Signal, stop chan struct{}) {
	var sig os.Signal
	select {
	case sig = <-ch:
	case <-stop:
		signal.Stop(ch)
		select {
		case sig = <-ch: // arrived before Stop: still ours to act on
		default:
			return
		}
	}
	reg.Lock() // waits for renames in progress; never unlocked
	for name := range reg.live {
		os.Remove(name)
	}
	// Die of the signal, as the process would have without the handler, so
	// that make and shells see it.
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Signal(sig) // if it fails, the Exit below ends the process
	}
	time.Sleep(time.Second)
	os.Exit(1) // where a process cannot signal itself
}
