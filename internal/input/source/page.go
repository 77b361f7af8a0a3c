package source

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// maxEmptyPages is how many pages in a row may come with a continue token
// and no object. The apiserver fills a page up to the limit unless the
// list ends (fewer come with label or field selectors, which are never
// set here); a few are let through for a server that pages otherwise,
// more is a list that does not end.
const maxEmptyPages = 10

// listFunc requests one page of a list: its objects and its continue token.
type listFunc[T any] func(ctx context.Context, opts metav1.ListOptions) (items []T, next string, err error)

// eachPage calls fn with each page of list (ChunkSize objects a request),
// each object once by key (namespace/name, a CRD's name), and returns how
// many objects it gave fn. These rules hold the server to an end:
//
//   - A continue token that came before in this list, or maxEmptyPages
//     pages in a row with a token and no object, is an error: the list
//     would not end.
//   - 410 Expired on a continue token (etcd compacted the revision the
//     list is read at; kube-apiserver compacts every 5 minutes by
//     default) restarts the list at its first page, at the current
//     revision, as k8s.io/client-go/tools/pager's FullListIfExpired does.
//     Objects given to fn before are skipped by key, so each is given
//     once, as first read; one stored meanwhile is given wherever it
//     sorts.
//   - A restarted list that expires again before it gives fn an object
//     not given before is an error: it made no progress.
//
// k8s.io/client-go/tools/pager does not fit: ListPager.List re-lists on
// 410 but holds every page of the list, then the re-list, which has no
// limit, in one response; EachListItem holds a page but returns the 410;
// neither ends a list whose server repeats a continue token. Here memory
// holds one page and the keys of the objects given (a string an object,
// not the object), for one list.
func eachPage[T any](ctx context.Context, list listFunc[T], key func(T) string, fn func([]T) error) (int, error) {
	given := map[string]bool{}
	r := newListRun()
	opts := metav1.ListOptions{Limit: ChunkSize}
	for {
		items, next, err := list(ctx, opts)
		if err != nil {
			if !apierrors.IsResourceExpired(err) || opts.Continue == "" {
				return len(given), err
			}
			if err := r.restart(err); err != nil {
				return len(given), err
			}
			opts.Continue = ""
			continue
		}
		page := unseen(items, key, given)
		r.fresh += len(page)
		if len(page) > 0 {
			if err := fn(page); err != nil {
				return len(given), err
			}
		}
		if next == "" {
			return len(given), nil
		}
		if err := r.next(next, len(items)); err != nil {
			return len(given), err
		}
		opts.Continue = next
	}
}

// unseen are the items whose key is not in given, now added to it.
func unseen[T any](items []T, key func(T) string, given map[string]bool) []T {
	out := items[:0:0]
	for _, it := range items {
		if k := key(it); !given[k] {
			given[k] = true
			out = append(out, it)
		}
	}
	return out
}

// listRun is one list from its first page to its end or 410 Expired.
type listRun struct {
	tokens   map[string]int // continue token: the page it came with
	pages    int            // pages read
	empty    int            // pages in a row with a token and no object
	fresh    int            // objects not given before, since the last restart
	restarts int
}

func newListRun() *listRun { return &listRun{tokens: map[string]int{}} }

// next takes the continue token of the page just read, which held items
// objects: a token that came before, or the maxEmptyPages-th empty page
// in a row, is an error.
func (r *listRun) next(token string, items int) error {
	r.pages++
	if p, ok := r.tokens[token]; ok {
		return fmt.Errorf("page %d came with the continue token of page %d: the server pages in a loop, a list that would not end (check the apiserver, or a proxy in front of it)", r.pages, p)
	}
	r.tokens[token] = r.pages
	if items > 0 {
		r.empty = 0
		return nil
	}
	if r.empty++; r.empty >= maxEmptyPages {
		return fmt.Errorf("%d pages in a row came with a continue token and no object: a list that would not end (check the apiserver, or a proxy in front of it)", r.empty)
	}
	return nil
}

// restart starts a new list after 410 Expired (expired), unless the
// list was restarted before and has given no new object since.
func (r *listRun) restart(expired error) error {
	if r.restarts > 0 && r.fresh == 0 {
		return fmt.Errorf("restart %d of the list expired before it read an object not read before, so it ends (a list that expires is read again from its first page, as k8s.io/client-go/tools/pager does; run impact again): %w", r.restarts, expired)
	}
	*r = listRun{tokens: map[string]int{}, restarts: r.restarts + 1}
	return nil
}
