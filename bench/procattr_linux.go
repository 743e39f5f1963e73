package bench

import "syscall"

// procAttr makes the kernel kill a server if the benchmark dies without
// stopping it.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
