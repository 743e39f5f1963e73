//go:build !linux

package testredis

import "os/exec"

func setProcAttr(*exec.Cmd) {}
