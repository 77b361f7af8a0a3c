//go:build unix

package atomicout

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/controller-tools/pkg/genall"
)

// helperEnv, set to a directory, makes the test binary a run that stages
// a.yaml and b.yaml there, says "staged" on stdout and waits to be killed.
const helperEnv = "ATOMICOUT_TEST_HELPER_DIR"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperEnv); dir != "" {
		var s Staging
		s.hooks.staged = func() {
			fmt.Println("staged")
			for {
				time.Sleep(time.Hour)
			}
		}
		r := s.Rule(genall.OutputToDirectory(dir))
		for _, name := range []string{"a.yaml", "b.yaml"} {
			w, _ := r.Open(nil, name)
			_, _ = w.Write([]byte("new\n")) // staged in memory: cannot fail
			_ = w.Close()
		}
		if err := s.Commit(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		os.Exit(3) // the hook never returns
	}
	os.Exit(m.Run())
}

// stagedRun starts a helper run on dir and returns once it has staged its
// files and is waiting before the renames.
func stagedRun(t *testing.T, dir string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "staged\n" {
		t.Fatalf("the helper said %q, %v; want staged", line, err)
	}
	if n := stagedIn(t, dir); len(n) != 2 {
		t.Fatalf("after staging, %s holds staged files %v; want 2", dir, n)
	}
	return cmd
}

func stagedIn(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	for _, n := range names(t, dir) {
		if stagedPattern.MatchString(n) {
			out = append(out, n)
		}
	}
	return out
}

// oldFiles writes a.yaml and b.yaml with "old\n".
func oldFiles(t *testing.T) string {
	dir := t.TempDir()
	mustWrite(t, filepath.Join(dir, "a.yaml"), "old\n", 0o644)
	mustWrite(t, filepath.Join(dir, "b.yaml"), "old\n", 0o644)
	return dir
}

// TestSignalRemovesStaged: SIGTERM or SIGINT after staging removes the
// staged files, leaves the outputs as they were, and the process still dies
// of the signal (make and shells see it).
func TestSignalRemovesStaged(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := oldFiles(t)
			cmd := stagedRun(t, dir)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("the run ended with %v, want killed by %v", cmd.ProcessState, sig)
			}
			if n := names(t, dir); !slices.Equal(n, []string{"a.yaml", "b.yaml"}) {
				t.Errorf("after %v, %s holds %v; want only a.yaml and b.yaml", sig, dir, n)
			}
			for _, name := range []string{"a.yaml", "b.yaml"} {
				if got := content(t, filepath.Join(dir, name)); got != "old\n" {
					t.Errorf("%s has %q, want it as it was", name, got)
				}
			}
		})
	}
}

// TestKilledRunLeftoversRemoved: a run killed with SIGKILL cannot clean
// up; the next run into the same directory removes what it left.
func TestKilledRunLeftoversRemoved(t *testing.T) {
	dir := oldFiles(t)
	cmd := stagedRun(t, dir)
	cmd.Process.Kill()
	cmd.Wait()
	if n := stagedIn(t, dir); len(n) != 2 {
		t.Fatalf("SIGKILL left %v; want the 2 staged files (else this test proves nothing)", n)
	}
	if err := commitFiles(t, dir, "a.yaml", "next\n"); err != nil {
		t.Fatal(err)
	}
	if n := names(t, dir); !slices.Equal(n, []string{"a.yaml", "b.yaml"}) {
		t.Errorf("after the next run, %s holds %v; want only a.yaml and b.yaml", dir, n)
	}
}

// TestStaleOnlyOurs: only regular files with the staged pattern of this
// host, boot and PID namespace whose process is gone are removed; this
// process's pid counts as gone (an earlier run with the same pid: PID 1 in
// a container), other live processes' staged files and anything else stay.
func TestStaleOnlyOurs(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	ours := func(base string, pid int) string { return stagedName(base, hostID(), pid, 0x0123abcd) }
	stale := []string{
		ours("a.yaml", dead),
		ours("gone.yaml", dead), // an output no longer generated
		ours("a.yaml", os.Getpid()),
	}
	kept := []string{
		ours("a.yaml", os.Getppid()),                                // a run still going
		".a.yaml.tmp-123456",                                        // another tool's
		"a.yaml~controller-gen-default-" + hostID() + "-1-0123abcd", // not hidden
		strings.Replace(ours("a.yaml", dead), "0123abcd", "0123abcz", 1),
		ours("a.yaml", dead) + ".yaml",
	}
	for _, n := range append(slices.Clone(stale), kept...) {
		mustWrite(t, filepath.Join(dir, n), "x\n", 0o644)
	}
	// not regular files
	dirLike := ours("d.yaml", dead)
	linkLike := ours("l.yaml", dead)
	if err := os.Mkdir(filepath.Join(dir, dirLike), 0o755); err != nil {
		t.Fatal(err)
	}
	mustLink(t, "a.yaml", filepath.Join(dir, linkLike))
	kept = append(kept, dirLike, linkLike)

	if err := commitFiles(t, dir, "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	got := names(t, dir)
	want := append(slices.Clone(kept), "a.yaml")
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after the run, %s holds\n%s\nwant\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// deadPID is the pid of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	gone := exec.Command(os.Args[0], "-test.run=^$")
	if err := gone.Run(); err != nil {
		t.Fatal(err)
	}
	return gone.Process.Pid
}

// TestStaleOtherNamespace: a staged file of another host, boot or PID
// namespace (a CI container sharing the output directory) is live as far
// as this process can tell, whatever its PID is here, and so is one named
// as earlier versions named them; each is removed only once older than
// staleAge.
func TestStaleOtherNamespace(t *testing.T) {
	dir := t.TempDir()
	dead := deadPID(t)
	foreign := "ffffffff"
	if hostID() == foreign {
		foreign = "00000000"
	}
	live := []string{
		stagedName("a.yaml", foreign, dead, 1),
		stagedName("a.yaml", foreign, os.Getpid(), 2),                   // its PID 1 is not ours
		fmt.Sprintf(".a.yaml~controller-gen-default-%d-0123abcd", dead), // legacy
	}
	old := []string{
		stagedName("b.yaml", foreign, dead, 3),
		fmt.Sprintf(".b.yaml~controller-gen-default-%d-0123abcd", dead),
	}
	for _, n := range append(slices.Clone(live), old...) {
		mustWrite(t, filepath.Join(dir, n), "x\n", 0o644)
	}
	long := time.Now().Add(-staleAge - time.Minute)
	for _, n := range old {
		if err := os.Chtimes(filepath.Join(dir, n), long, long); err != nil {
			t.Fatal(err)
		}
	}
	if err := commitFiles(t, dir, "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(live), "a.yaml")
	slices.Sort(want)
	if got := names(t, dir); !slices.Equal(got, want) {
		t.Errorf("after the run, %s holds\n%s\nwant\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestOwnerKept: as root, a replaced file keeps its owner and group, as it
// does when written through (a run as root in a container on a bind-mounted
// tree).
func TestOwnerKept(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to give a file another owner")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "a.yaml")
	mustWrite(t, path, "old\n", 0o644)
	if err := os.Chown(path, 12345, 23456); err != nil {
		t.Fatal(err)
	}
	if err := commitFiles(t, dir, "a.yaml", "new\n"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	st := fi.Sys().(*syscall.Stat_t)
	if st.Uid != 12345 || st.Gid != 23456 {
		t.Errorf("owner %d:%d, want 12345:23456 kept", st.Uid, st.Gid)
	}
}
