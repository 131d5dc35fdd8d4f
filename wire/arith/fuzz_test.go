package arith

import (
	"encoding/binary"
	"testing"
)

// programFromBytes turns fuzz bytes into a symbol program (5 bytes each).
func programFromBytes(data []byte) []symbol {
	var prog []symbol
	for len(data) >= 5 {
		op, v := data[0], int32(binary.LittleEndian.Uint32(data[1:5]))
		data = data[5:]
		s := symbol{kind: int(op & 3), ctx: int(op>>2) & 7}
		switch s.kind {
		case 0:
			s.v = v & 1
		case 1:
			s.n = int(op>>5) * 4 // 0..28
			s.v = int32(uint32(v) & uint32(1<<uint(s.n)-1))
		case 2:
			s.v = v & 15
		case 3:
			s.v = v % GolombMax
		}
		prog = append(prog, s)
	}
	return prog
}

// FuzzArith: any bytes, read as a program of symbols, round-trip exactly
// and end where the stream ends; the same bytes read as a coded stream
// decode without panicking.
func FuzzArith(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 1, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0x7f, 0xe1, 0x55, 0x55, 0x55, 0x55})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
	buf := make([]byte, 1<<16)
	f.Fuzz(func(t *testing.T, data []byte) {
		prog := programFromBytes(data)
		coded, _, err := encodeProgram(buf, prog)
		if err != nil {
			t.Fatal(err)
		}
		if bad, err := decodeProgram(coded, prog); bad >= 0 || err != nil {
			t.Fatalf("symbol %d differs, done: %v", bad, err)
		}
		decodeProgram(data, prog) // hostile: must not panic
	})
}
