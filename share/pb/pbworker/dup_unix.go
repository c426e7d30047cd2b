//go:build unix && !linux

package pbworker

import "syscall"

// dupOnto makes descriptor to a copy of from (dup2).
func dupOnto(from, to int) error {
	return syscall.Dup2(from, to)
}
