package ordered

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// scenario is one random run: n workers over inputs 0..len-1, each
// processed in its own time, with the ways a run can end early.
type scenario struct {
	n   int
	len int
	// readErrAt: inputs yields an error in place of input i (-1: never;
	// len: after the last input).
	readErrAt int
	// processErr: process fails on these inputs.
	processErr map[int]bool
	// deliverErrAt: deliver fails on input i (-1: never).
	deliverErrAt int
	// cancelAt: deliver cancels the caller's context on input i and
	// returns nil (-1: never).
	cancelAt int
	// blockAt: process waits for its context to be done on input i, which
	// lies after the end of the run (-1: none).
	blockAt int
	// processDelay and readDelay are how long process and inputs take on
	// each input.
	processDelay, readDelay []time.Duration
}

func (sc scenario) String() string {
	return fmt.Sprintf("n=%d len=%d readErrAt=%d processErr=%v deliverErrAt=%d cancelAt=%d blockAt=%d",
		sc.n, sc.len, sc.readErrAt, slices.Sorted(func(yield func(int) bool) {
			for i := range sc.processErr {
				if !yield(i) {
					return
				}
			}
		}), sc.deliverErrAt, sc.cancelAt, sc.blockAt)
}

func randomScenario(r *rand.Rand, maxDelay time.Duration) scenario {
	sc := scenario{n: r.IntN(9), len: r.IntN(60), readErrAt: -1, processErr: map[int]bool{}, deliverErrAt: -1, cancelAt: -1, blockAt: -1}
	pick := func() int { return r.IntN(sc.len + 1) }
	if r.IntN(3) == 0 {
		sc.readErrAt = pick()
	}
	for range r.IntN(3) {
		if sc.len > 0 && r.IntN(2) == 0 {
			sc.processErr[r.IntN(sc.len)] = true
		}
	}
	if sc.len > 0 && r.IntN(3) == 0 {
		sc.deliverErrAt = r.IntN(sc.len)
	}
	if sc.len > 0 && r.IntN(4) == 0 {
		sc.cancelAt = r.IntN(sc.len)
	}
	// an input whose process blocks must come after the end of the run,
	// or the sequential loop would block too
	if end := sc.end(); end >= 0 && end+1 < sc.len && r.IntN(2) == 0 {
		sc.blockAt = end + 1 + r.IntN(sc.len-end-1)
		delete(sc.processErr, sc.blockAt)
	}
	for range sc.len + 1 {
		sc.processDelay = append(sc.processDelay, time.Duration(r.Int64N(int64(maxDelay)+1)))
		sc.readDelay = append(sc.readDelay, time.Duration(r.Int64N(int64(maxDelay)/4+1)))
	}
	return sc
}

// end is the input at which the sequential loop stops early, or -1.
func (sc scenario) end() int {
	for i := 0; i <= sc.len; i++ {
		if i == sc.readErrAt || sc.processErr[i] || i == sc.deliverErrAt || i == sc.cancelAt {
			return i
		}
	}
	return -1
}

var errCancelled = context.Canceled

// sequential is the loop Run's documentation gives, run on sc: what is
// delivered and what is returned.
func (sc scenario) sequential() ([]string, error) {
	var got []string
	for i := range sc.len + 1 {
		if i == sc.readErrAt {
			return got, readErr(i)
		}
		if i == sc.len {
			break
		}
		if sc.processErr[i] {
			return got, processErr(i)
		}
		got = append(got, result(i))
		if i == sc.deliverErrAt {
			return got, deliverErr(i)
		}
		if i == sc.cancelAt && i+1 < sc.len+boolInt(sc.readErrAt == sc.len) {
			// the next step sees the context done
			return got, errCancelled
		}
	}
	return got, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func readErr(i int) error    { return fmt.Errorf("reading input %d", i) }
func processErr(i int) error { return fmt.Errorf("processing input %d", i) }
func deliverErr(i int) error { return fmt.Errorf("delivering input %d", i) }
func result(i int) string    { return fmt.Sprintf("result %d", i) }

// check runs sc through Run and compares it with the sequential loop, and
// checks the bounds Run documents.
func check(t *testing.T, sc scenario) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var (
		read, active, maxActive atomic.Int64
		returned, seqReturned   atomic.Bool
		mu                      sync.Mutex
		violations              []string
		processed               = map[int]int{}
	)
	violate := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		violations = append(violations, fmt.Sprintf(format, args...))
	}
	inputs := iter.Seq2[int, error](func(yield func(int, error) bool) {
		defer seqReturned.Store(true)
		for i := range sc.len + 1 {
			time.Sleep(sc.readDelay[i])
			if returned.Load() {
				violate("inputs resumed after Run returned")
			}
			if i == sc.readErrAt {
				read.Add(1)
				yield(0, readErr(i))
				return
			}
			if i == sc.len {
				return
			}
			read.Add(1)
			if !yield(i, nil) {
				return
			}
		}
	})
	process := func(ctx context.Context, i int) (string, error) {
		if returned.Load() {
			violate("process(%d) called after Run returned", i)
		}
		for a, m := active.Add(1), maxActive.Load(); a > m && !maxActive.CompareAndSwap(m, a); m = maxActive.Load() {
		}
		defer active.Add(-1)
		mu.Lock()
		processed[i]++
		mu.Unlock()
		if i == sc.blockAt {
			<-ctx.Done()
			return "", ctx.Err()
		}
		time.Sleep(sc.processDelay[i])
		if sc.processErr[i] {
			return "", processErr(i)
		}
		return result(i), nil
	}
	var got []string
	deliver := func(s string) error {
		k := len(got)
		if r := read.Load(); r > int64(k+max(sc.n, 1)+2) {
			violate("delivering input %d with %d inputs read: more than n+2 ahead", k, r)
		}
		got = append(got, s)
		if k == sc.deliverErrAt {
			return deliverErr(k)
		}
		if k == sc.cancelAt {
			cancel()
		}
		return nil
	}
	err := Run(ctx, sc.n, inputs, process, deliver)
	returned.Store(true)

	want, wantErr := sc.sequential()
	if !slices.Equal(got, want) || fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("%v:\ndelivered %q, %v\nsequential %q, %v", sc, got, err, want, wantErr)
	}
	if !seqReturned.Load() {
		t.Errorf("%v: inputs still running after Run returned", sc)
	}
	if a := active.Load(); a != 0 {
		t.Errorf("%v: %d process calls still running after Run returned", sc, a)
	}
	if m := maxActive.Load(); m > int64(max(sc.n, 1)) {
		t.Errorf("%v: %d process calls at once", sc, m)
	}
	for i, c := range processed {
		if c != 1 || i >= sc.len || (sc.readErrAt >= 0 && i >= sc.readErrAt) {
			t.Errorf("%v: input %d processed %d times", sc, i, c)
		}
	}
	for _, v := range violations {
		t.Errorf("%v: %s", sc, v)
	}
}

// TestRunIsSequential: for random worker counts, processing and reading
// times and ends (a read error, a process error, a deliver error, a
// cancelled context), Run delivers what the sequential loop delivers and
// returns what it returns, within its bounds. Time is synctest's, so that
// delays of up to a second cost nothing and are exact.
func TestRunIsSequential(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 1))
	for range 400 {
		sc := randomScenario(r, time.Second)
		synctest.Test(t, func(t *testing.T) { check(t, sc) })
	}
}

// TestRunIsSequentialRealTime is the same property under the real clock
// and scheduler, with delays of up to 200µs.
func TestRunIsSequentialRealTime(t *testing.T) {
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	r := rand.New(rand.NewPCG(uint64(seed), 2))
	for range 150 {
		check(t, randomScenario(r, 200*time.Microsecond))
	}
}

// values yields vs without error.
func values[T any](vs ...T) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for _, v := range vs {
			if !yield(v, nil) {
				return
			}
		}
	}
}

// TestRunParallel: n slow inputs take about the time of one, not n.
func TestRunParallel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n = 4
		start := time.Now()
		var got []int
		err := Run(context.Background(), n, values(0, 1, 2, 3), func(_ context.Context, i int) (int, error) {
			time.Sleep(time.Second)
			return i * 10, nil
		}, func(v int) error { got = append(got, v); return nil })
		if err != nil || !slices.Equal(got, []int{0, 10, 20, 30}) {
			t.Fatalf("got %v, %v", got, err)
		}
		if d := time.Since(start); d != time.Second {
			t.Errorf("4 inputs of 1s on 4 workers took %v", d)
		}
	})
}

// TestRunDeliversEarly: a result is delivered as soon as it and those
// before it are ready, while later inputs are still being processed.
func TestRunDeliversEarly(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		var at []time.Duration
		delays := []time.Duration{time.Second, 3 * time.Second, time.Second, 5 * time.Second}
		err := Run(context.Background(), 4, values(delays...), func(_ context.Context, d time.Duration) (time.Duration, error) {
			time.Sleep(d)
			return d, nil
		}, func(time.Duration) error { at = append(at, time.Since(start)); return nil })
		want := []time.Duration{time.Second, 3 * time.Second, 3 * time.Second, 5 * time.Second}
		if err != nil || !slices.Equal(at, want) {
			t.Errorf("delivered at %v, %v; want %v", at, err, want)
		}
	})
}

// TestRunCancelledBefore: a context already done delivers nothing and
// processes nothing.
func TestRunCancelledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int64
	err := Run(ctx, 3, values(1, 2, 3), func(context.Context, int) (int, error) {
		calls.Add(1)
		return 0, nil
	}, func(int) error { t.Error("delivered"); return nil })
	if !errors.Is(err, context.Canceled) || calls.Load() != 0 {
		t.Errorf("Run = %v after %d process calls; want context.Canceled and none", err, calls.Load())
	}
}
