module itoa

go 1.19

require pbworker v0.0.0

// the helper in the pb sources; make install makes this ../../../pbworker,
// where it is installed (PREFIX/share/pb/pbworker)
replace pbworker => ../../../share/pb/pbworker
