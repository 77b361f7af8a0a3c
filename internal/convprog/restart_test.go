package convprog

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// dyingAPI is the test API with a ConvertTo that exits the program
// (os.Exit(3), as log.Fatal would) on the Widget named "exit", panics in
// a goroutine on "panic" (which no recover of the handler catches), never
// returns on "sleep" and "sleep-again", writes 16 MiB without a newline to the program's
// standard output on "flood" (through os.Stdout as a logger holds it,
// taken before main runs), and allocates 2 GiB (64 MiB at a time, kept,
// never written: no page of it is touched) on "oom".
func dyingAPI(t *testing.T) *Program {
	t.Helper()
	dir, _ := editConversion(t, func(src string) string {
		src = strings.Replace(src, "\tdst := dstRaw.(*v1.Widget)\n", `	switch src.Name {
	case "exit":
		fmt.Fprintln(os.Stderr, "fatal: cannot convert", src.Name)
		os.Exit(3)
	case "panic":
		done := make(chan struct{})
		go func() { panic("converting " + src.Name) }()
		<-done
	case "sleep", "sleep-again":
		select {}
	case "flood":
		chunk := bytes.Repeat([]byte("x"), 1<<20)
		for range 16 {
			logOut.Write(chunk)
		}
	case "oom":
		var kept [][]byte
		for range 32 {
			kept = append(kept, make([]byte, 64<<20))
		}
		src.Annotations = map[string]string{"kept": fmt.Sprint(len(kept))}
	}
	dst := dstRaw.(*v1.Widget)
`, 1)
		src += "\n// logOut is os.Stdout as a logger holds it, taken before main runs.\nvar logOut = os.Stdout\n"
		return strings.Replace(src, "import (\n\t\"fmt\"\n", "import (\n\t\"bytes\"\n\t\"fmt\"\n\t\"os\"\n", 1)
	})
	return mustBuild(t, Options{Dir: dir, Patterns: []string{"./api/..."}, CacheDir: testCache(t)})
}

func named(name string, length int64) map[string]any {
	w := widget("conv.example.com/v1beta1", map[string]any{"length": length})
	w["metadata"].(map[string]any)["name"] = name
	return w
}

// TestRestart runs restartAfterExitAndTimeout and restartCap on one build
// of dyingAPI.
func TestRestart(t *testing.T) {
	p := dyingAPI(t)
	t.Run("after exit and timeout", func(t *testing.T) { restartAfterExitAndTimeout(t, p) })
	t.Run("cap", func(t *testing.T) { restartCap(t, p) })
	t.Run("answer line limit", func(t *testing.T) { answerLineLimit(t, p) })
	t.Run("memory limit", func(t *testing.T) { memoryLimit(t, p) })
	t.Run("concurrent failures", func(t *testing.T) { concurrentFailures(t, p) })
}

// restartAfterExitAndTimeout: a program that exits (os.Exit, a panic
// in a goroutine) on one object, or does not answer on one within
// Timeout, fails that conversion only, with the exit status and what it
// printed, or the timeout; the next conversion starts it again if it
// exited (as a webhook server's Pod restarts), or goes on with it if it
// hangs on one request, and succeeds.
func restartAfterExitAndTimeout(t *testing.T, p *Program) {
	proc := start(t, p)
	proc.Timeout = 2 * time.Second
	ctx := context.Background()
	for i, tc := range []struct{ name, want string }{
		{"exit", "exit status 3):\nfatal: cannot convert exit"},
		{"panic", "exit status 2):\npanic: converting panic"},
		{"sleep", "the conversion program did not answer: no answer within 2s (context deadline exceeded)"},
		{"exit", "exit status 3"},
	} {
		_, err := proc.Convert(ctx, []map[string]any{named(tc.name, 1)}, "conv.example.com/v1")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%d: converting %q: %v; want an error with %q", i, tc.name, err, tc.want)
		}
		out, err := proc.Convert(ctx, []map[string]any{named("fine", int64(i+1))}, "conv.example.com/v1")
		if err != nil {
			t.Fatalf("%d: the conversion after %q: %v; want the program started again", i, tc.name, err)
		}
		if got := out[0]["spec"].(map[string]any)["size"]; got != int64(i+1) {
			t.Errorf("%d: size %v, want %d", i, got, i+1)
		}
	}
	if proc.restarts != 3 || proc.failures != 3 {
		t.Errorf("%d restarts, %d failures, want 3 and 3 (a hang restarts nothing)", proc.restarts, proc.failures)
	}
}

// restartCap: after MaxRestarts restarts, every request fails with one
// error that says so; and a program that cannot be started again fails
// every later request with why.
func restartCap(t *testing.T, p *Program) {
	proc := start(t, p)
	ctx := context.Background()
	proc.failures = MaxRestarts - 1
	exit := []map[string]any{named("exit", 1)}
	for range 2 {
		if _, err := proc.Convert(ctx, exit, "conv.example.com/v1"); err == nil || !strings.Contains(err.Error(), "exit status 3") {
			t.Fatalf("converting exit: %v", err)
		}
	}
	want := "the conversion program failed 21 times; it is not started again"
	for range 2 {
		if _, err := proc.Convert(ctx, []map[string]any{named("fine", 1)}, "conv.example.com/v1"); err == nil || err.Error() != want {
			t.Errorf("after %d restarts: %v, want %q", MaxRestarts, err, want)
		}
	}

	proc2 := start(t, p)
	if _, err := proc2.Convert(ctx, exit, "conv.example.com/v1"); err == nil {
		t.Fatal("converting exit: no error")
	}
	proc2.prog = &Program{Path: "/nonexistent/convprog"}
	for range 2 {
		_, err := proc2.Convert(ctx, []map[string]any{named("fine", 1)}, "conv.example.com/v1")
		if err == nil || !strings.HasPrefix(err.Error(), "the conversion program failed, and could not be started again: starting the conversion program /nonexistent/convprog") {
			t.Errorf("a program that cannot start again: %v", err)
		}
	}
	if err := proc2.Close(); err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("Close: %v", err)
	}
}

// answerLineLimit: 16 MiB written to the program's standard output without
// a newline (more than an answer to a request of one object may be, 12
// MiB) is not read as a line: the conversion fails saying what happened,
// the program is stopped, and the next conversion starts it again.
func answerLineLimit(t *testing.T, p *Program) {
	proc := start(t, p)
	ctx := context.Background()
	_, err := proc.Convert(ctx, []map[string]any{named("flood", 1)}, "conv.example.com/v1")
	want := "the conversion program wrote more than 12582912 bytes without a newline, more than an answer may be (4 times the largest request): " +
		"something in the API's code writes to standard output"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `starting "xxxx`) {
		t.Fatalf("converting flood: %v; want an error with %q", err, want)
	}
	if _, err := proc.Convert(ctx, []map[string]any{named("fine", 1)}, "conv.example.com/v1"); err != nil {
		t.Errorf("the conversion after flood: %v; want the program started again", err)
	}
	if proc.restarts != 1 {
		t.Errorf("%d restarts, want 1", proc.restarts)
	}
}

// memoryLimit: a conversion that allocates past the program's memory
// limit fails as out of memory, naming the limit, not as a crash; the
// next conversion starts the program again.
func memoryLimit(t *testing.T, p *Program) {
	if runtime.GOOS != "linux" {
		t.Skip("the hard memory limit is Linux's RLIMIT_DATA")
	}
	limited := *p
	limited.MemoryLimit = 256 << 20
	proc := start(t, &limited)
	ctx := context.Background()
	_, err := proc.Convert(ctx, []map[string]any{named("oom", 1)}, "conv.example.com/v1")
	pe, ok := errors.AsType[*ProgramError](err)
	// the runtime's line depends on what fails: an allocation (fatal
	// error: runtime: out of memory), or a thread's stack
	// (runtime/cgo: pthread_create failed)
	want := "the conversion program ran out of memory (its limit is 256 MiB (RLIMIT_DATA), as a webhook Pod's memory limit): "
	if !ok || !pe.OutOfMemory || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("converting oom: %v; want a ProgramError with OutOfMemory: %q", err, want)
	}
	if _, err := proc.Convert(ctx, []map[string]any{named("fine", 1)}, "conv.example.com/v1"); err != nil {
		t.Errorf("the conversion after oom: %v; want the program started again", err)
	}
}

// concurrentFailures: requests sent at once, each with the caller's own
// deadline (as the apiserver's webhook client has one) a little over
// Timeout, while two conversions hang, one exits the program and one
// panics in it, each fail alone: the hangs with the timeout, the exit and
// the panic each with its own exit status and message (the cut requests
// are run again alone), and every other conversion succeeds, within its
// deadline; the same as when the requests come one at a time.
func concurrentFailures(t *testing.T, p *Program) {
	names := []string{"fine-1", "sleep", "fine-2", "exit", "fine-3", "sleep-again", "panic", "fine-4", "fine-5"}
	hang := "the conversion program did not answer: no answer within 3s (context deadline exceeded)"
	want := map[string]string{
		"sleep": hang, "sleep-again": hang,
		"exit":  "the conversion program stopped (exit status 3):\nfatal: cannot convert exit",
		"panic": "the conversion program stopped (exit status 2):\npanic: converting panic\n\ngoroutine N [running]:",
	}
	run := func(t *testing.T, together bool) map[string]string {
		proc := start(t, p)
		proc.Timeout = 3 * time.Second
		got := make([]string, len(names))
		convert := func(i int) {
			ctx, cancel := context.WithTimeout(context.Background(), 3500*time.Millisecond)
			defer cancel()
			out, err := proc.Convert(ctx, []map[string]any{named(names[i], int64(i+1))}, "conv.example.com/v1")
			switch {
			case err != nil:
				got[i] = err.Error()
			case out[0]["spec"].(map[string]any)["size"] != int64(i+1):
				got[i] = fmt.Sprintf("size %v", out[0]["spec"])
			}
		}
		var wg sync.WaitGroup
		for i := range names {
			if together {
				wg.Go(func() { convert(i) })
			} else {
				convert(i)
			}
		}
		wg.Wait()
		res := map[string]string{}
		for i, n := range names {
			res[n] = got[i]
		}
		return res
	}
	one, together := run(t, false), run(t, true)
	for _, n := range names {
		if !strings.HasPrefix(together[n], want[n]) || want[n] == "" && together[n] != "" {
			t.Errorf("%s, sent together with the others: %q; want %q", n, together[n], want[n])
		}
		if together[n] != one[n] {
			t.Errorf("%s: sent together %q, one at a time %q", n, together[n], one[n])
		}
	}
}
