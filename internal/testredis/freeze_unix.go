//go:build unix

package testredis

import "syscall"

// Freeze suspends the server (SIGSTOP): connections stay open and nothing
// answers, as with a Redis that hangs. Thaw resumes it (SIGCONT).
func (s *Server) Freeze() { s.signal(syscall.SIGSTOP) }

// Thaw resumes a frozen server.
func (s *Server) Thaw() { s.signal(syscall.SIGCONT) }

func (s *Server) signal(sig syscall.Signal) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(sig)
	}
}
