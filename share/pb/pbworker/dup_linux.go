package pbworker

import "syscall"

// dupOnto makes descriptor to a copy of from (dup2; Linux on arm64 has
// only dup3).
func dupOnto(from, to int) error {
	return syscall.Dup3(from, to, 0)
}
