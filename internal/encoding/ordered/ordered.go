// Package ordered processes a sequence in parallel and delivers the results
// in input order, as soon as each result and those before it are ready.
//
// It is the shape of a command that reads objects one at a time, does
// something expensive with each, and prints each answer: with n workers the
// output is the same as with one, and memory holds the objects in flight
// (at most n+2), not the whole input.
package ordered

import (
	"context"
	"iter"
	"sync"
)

// slot is one input in flight: read in order, processed by any worker,
// delivered in order once done is closed.
type slot[In, Out any] struct {
	in   In
	out  Out
	err  error
	done chan struct{}
}

// Run reads inputs in order, calls process on up to n of them at once (n
// below 1 counts as 1), and calls deliver with each result in input order,
// as soon as it and every result before it are ready: the sequence of
// deliver calls, and Run's result, are those of the sequential loop
//
//	for in, err := range inputs {
//		if err != nil {
//			return err
//		}
//		out, err := process(ctx, in)
//		if err != nil {
//			return err
//		}
//		if err := deliver(out); err != nil {
//			return err
//		}
//	}
//	return nil
//
// whatever n and however long each process call takes. The first error in
// input order ends the run: an error that inputs yields, one that process
// returns, or one that deliver returns (a caller that wants to stop early
// returns an error of its own). Nothing after it is delivered; results
// that later inputs already had are dropped.
//
// process is called from n worker goroutines, and must be safe for
// concurrent use; it may be called on inputs after the one that ends the
// run (they are read ahead), but its results are never delivered. deliver
// is called from Run's goroutine, one call at a time. inputs is ranged over
// from one goroutine.
//
// Memory is bounded: at most n+2 inputs are held between being read and
// being delivered (n queued behind the one being delivered, and the one
// being read), so inputs is read at most n+2 ahead of deliver.
//
// When the run ends (an error, or ctx is done), the context passed to
// process is cancelled, no further process call starts, and inputs is not
// resumed: its yield returns false. Run returns once the reader and every
// worker have returned, so no call of process and no step of inputs
// outlives it; an inputs that is blocked reading (a terminal, a pipe)
// delays Run until that read returns. If ctx is done before every result
// is delivered, Run returns ctx.Err().
func Run[In, Out any](ctx context.Context, n int, inputs iter.Seq2[In, error], process func(context.Context, In) (Out, error), deliver func(Out) error) error {
	n = max(n, 1)
	ctx, cancel := context.WithCancel(ctx)
	// work feeds the workers; order holds the same slots in input order,
	// and its capacity bounds how far reading runs ahead of delivering.
	work := make(chan *slot[In, Out], n)
	order := make(chan *slot[In, Out], n)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	for range n {
		wg.Go(func() {
			for s := range work {
				if err := ctx.Err(); err != nil {
					s.err = err
				} else {
					s.out, s.err = process(ctx, s.in)
				}
				close(s.done)
			}
		})
	}
	// complete: inputs ended without error and every input was queued;
	// written before order is closed, read after.
	complete := false
	wg.Go(func() {
		defer close(order)
		defer close(work)
		for in, err := range inputs {
			s := &slot[In, Out]{in: in, err: err, done: make(chan struct{})}
			if err != nil {
				close(s.done) // delivered in its turn as the end
			} else {
				select {
				case work <- s:
				case <-ctx.Done():
					return
				}
			}
			select {
			case order <- s:
			case <-ctx.Done():
				return
			}
			if err != nil {
				return
			}
		}
		complete = true
	})
	for s := range order {
		select {
		case <-s.done:
		case <-ctx.Done():
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.err != nil {
			return s.err
		}
		if err := deliver(s.out); err != nil {
			return err
		}
	}
	if !complete {
		// the reader stopped because ctx is done
		return ctx.Err()
	}
	return nil
}
