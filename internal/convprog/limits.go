package convprog

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/controller-gen-default/controller-gen-default/internal/input/manifest"
)

// answerFactor bounds how much longer than the objects it converts an
// answer line may be: a converted object may carry the object it came
// from in an annotation (cluster-api's conversion-data), JSON-escaped,
// which more than doubles it; twice that leaves room.
const answerFactor = 4

// minLineLimit is the longest answer line read for a request of one
// object at the apiserver's limit on a request body
// (manifest.MaxRequestBodyBytes, 3 MiB), the largest object any request
// carries: 12 MiB.
const minLineLimit = answerFactor * manifest.MaxRequestBodyBytes

// lineLimit is the longest line of the program's standard output read as
// an answer: answerFactor times the longest request sent, and at least
// minLineLimit. A longer line is what the API's code writes to the
// program's standard output without a newline, not an answer: it ends the
// program, and the requests in flight fail with it.
func (p *Process) lineLimit() int {
	return int(max(minLineLimit, answerFactor*p.longest.Load()))
}

// DefaultMemoryLimit is the memory limit the program runs with unless
// Program.MemoryLimit says otherwise: a webhook server's Pod runs with
// one (kubebuilder's scaffold sets 128Mi), and 1 GiB is far more than a
// conversion of objects of at most 3 MiB needs, while it keeps a
// conversion that allocates without end from taking the machine.
const DefaultMemoryLimit = 1 << 30

// memoryLimit is the program's memory limit in bytes; 0 for none.
func (p *Program) memoryLimit() int64 {
	switch {
	case p.MemoryLimit < 0:
		return 0
	case p.MemoryLimit == 0:
		return DefaultMemoryLimit
	}
	return p.MemoryLimit
}

// goroutineIDs are the goroutine numbers of a Go traceback, which differ
// from run to run of the same conversion.
var goroutineIDs = regexp.MustCompile(`\bgoroutine \d+\b`)

// exitError is the error of a request cut by the end of in's output, once
// the program has exited: an answer line over the limit; out of memory,
// with the limit; another fatal error of the Go runtime, its line (the
// traceback of every goroutine after it is left out); otherwise its exit
// status and what it wrote to standard error since the request was sent
// (since: bytes written before), its goroutine numbers left out.
func exitError(in *instance, since int64) *ProgramError {
	werr := in.wait()
	if tl := in.tooLong; tl != nil {
		return &ProgramError{Err: fmt.Errorf("the conversion program wrote more than %d bytes without a newline, more than an answer may be (%d times the largest request): "+
			"something in the API's code writes to standard output (a logger given os.Stdout before main runs?), starting %q; the program was stopped", tl.limit, answerFactor, tl.start)}
	}
	status := werr
	if status == nil {
		status = fmt.Errorf("exit status 0, before it answered")
	}
	// a thread that cannot start is out of memory only under the limit
	// (else ulimit -u, say)
	if m := in.stderr.memorySince(since); m != "" && (in.limit > 0 || strings.Contains(m, "memory")) {
		limit := "no hard limit on this system; GOMEMLIMIT is soft"
		if in.limit > 0 {
			limit = fmt.Sprintf("its limit is %d MiB (RLIMIT_DATA), as a webhook Pod's memory limit", in.limit>>20)
		}
		return &ProgramError{Err: fmt.Errorf("the conversion program ran out of memory (%s): %s", limit, m), OutOfMemory: true}
	}
	fatal := in.stderr.fatalSince(since)
	if fatal != "" {
		return &ProgramError{Err: fmt.Errorf("the conversion program stopped (%w): %s (the Go runtime's traceback of every goroutine, after it on the program's standard error, is left out)", status, fatal)}
	}
	msg := strings.TrimSpace(in.stderr.since(since))
	if msg == "" {
		return &ProgramError{Err: fmt.Errorf("the conversion program stopped: %w", status)}
	}
	msg = goroutineIDs.ReplaceAllString(msg, "goroutine N")
	return &ProgramError{Err: fmt.Errorf("the conversion program stopped (%w):\n%s", status, msg)}
}
