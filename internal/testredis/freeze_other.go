//go:build !unix

package testredis

// Freeze needs SIGSTOP, which this platform lacks: the test is skipped.
func (s *Server) Freeze() { s.tb.Skip("testredis: Freeze needs SIGSTOP (unix only)") }

// Thaw does nothing where Freeze skips.
func (s *Server) Thaw() {}
