package runner

// Fill fills buf with the payload pattern every runner writes: the letters
// a to z over and over from buf[0], recognisable in a hex dump and never
// all zeros (a file system may treat zeros specially).
func Fill(buf []byte) {
	for i := range buf {
		buf[i] = byte('a' + i%26)
	}
}

// Payload returns n bytes of the pattern of Fill.
func Payload(n int) []byte {
	p := make([]byte, n)
	Fill(p)
	return p
}
