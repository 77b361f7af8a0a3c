package convprog

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// dyingAPI is the test API with a ConvertTo that exits the program
// (os.Exit(3), as log.Fatal would) on the Widget named "exit", panics in
// a goroutine on "panic" (which no recover of the handler catches), and
// never returns on "sleep".
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
	case "sleep":
		select {}
	}
	dst := dstRaw.(*v1.Widget)
`, 1)
		return strings.Replace(src, "import (\n\t\"fmt\"\n", "import (\n\t\"fmt\"\n\t\"os\"\n", 1)
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
}

// restartAfterExitAndTimeout: a program that exits (os.Exit, a panic
// in a goroutine) on one object, or does not answer on one within
// Timeout, fails that conversion only, with the exit status and what it
// printed, or the timeout; the next conversion starts it again and
// succeeds, as a webhook server's Pod restarts.
func restartAfterExitAndTimeout(t *testing.T, p *Program) {
	proc := start(t, p)
	proc.Timeout = 2 * time.Second
	ctx := context.Background()
	for i, tc := range []struct{ name, want string }{
		{"exit", "exit status 3):\nfatal: cannot convert exit"},
		{"panic", "exit status 2):\npanic: converting panic"},
		{"sleep", "the conversion program was killed: no answer within 2s (context deadline exceeded)"},
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
	if proc.restarts != 4 {
		t.Errorf("%d restarts, want 4", proc.restarts)
	}
}

// restartCap: after MaxRestarts restarts, every request fails with one
// error that says so; and a program that cannot be started again fails
// every later request with why.
func restartCap(t *testing.T, p *Program) {
	proc := start(t, p)
	ctx := context.Background()
	proc.restarts = MaxRestarts - 1
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
