package link

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"testing"

	"netcubes/wire"
)

func roundTripConfig(t *testing.T, c Config) Config {
	t.Helper()
	w := wire.NewWriteStream(make([]byte, 512))
	if err := c.Serialize(w); err != nil {
		t.Fatal(err)
	}
	m := wire.NewMeasureStream()
	err := c.Serialize(m)
	b := m.Breakdown()
	if err != nil || (b.Total()+7)/8 != len(w.Bytes()) {
		t.Fatalf("measured %d bits, wrote %d bytes (%v)", b.Total(), len(w.Bytes()), err)
	}
	var got Config
	if err := got.Serialize(wire.NewReadStream(w.Bytes())); err != nil {
		t.Fatal(err)
	}
	return got
}

func TestSerializePresets(t *testing.T) {
	for p := Preset(0); p < NumPresets; p++ {
		t.Run(p.String(), func(t *testing.T) {
			c := p.Config()
			if got := roundTripConfig(t, c); got != c {
				t.Fatalf("got %+v\nwant %+v", got, c)
			}
		})
	}
}

// TestSerializeEveryField sets every field of Config (found by reflection,
// nested structs included) to a distinct value within its range and checks
// it survives the round trip: a field added to Config but not to
// wireFields comes back zero and fails here.
func TestSerializeEveryField(t *testing.T) {
	var c Config
	n := 0
	var fill func(v reflect.Value, path string)
	fill = func(v reflect.Value, path string) {
		for i := 0; i < v.NumField(); i++ {
			f, name := v.Field(i), path+v.Type().Field(i).Name
			n++
			switch f.Kind() {
			case reflect.Struct:
				fill(f, name+".")
			case reflect.Array:
				for k := 0; k < f.Len(); k++ {
					if f.Index(k).Kind() != reflect.Struct {
						t.Fatalf("Config.%s holds %v: teach wireFields and this test about it", name, f.Index(k).Kind())
					}
					fill(f.Index(k), fmt.Sprintf("%s[%d].", name, k))
				}
			case reflect.Float64:
				f.SetFloat(float64(n) + 0.25) // ≤ 100: in every field's range
			case reflect.Int:
				f.SetInt(int64(n) + 100)
			case reflect.Bool:
				f.SetBool(true)
			default:
				t.Fatalf("Config.%s is a %v: teach wireFields and this test about it", name, f.Kind())
			}
		}
	}
	fill(reflect.ValueOf(&c).Elem(), "")
	got := roundTripConfig(t, c)
	gv, cv := reflect.ValueOf(got), reflect.ValueOf(c)
	var cmp func(a, b reflect.Value, path string)
	cmp = func(a, b reflect.Value, path string) {
		for i := 0; i < a.NumField(); i++ {
			name := path + a.Type().Field(i).Name
			if a.Field(i).Kind() == reflect.Struct {
				cmp(a.Field(i), b.Field(i), name+".")
				continue
			}
			if a.Field(i).Kind() == reflect.Array {
				for k := 0; k < a.Field(i).Len(); k++ {
					cmp(a.Field(i).Index(k), b.Field(i).Index(k), fmt.Sprintf("%s[%d].", name, k))
				}
				continue
			}
			if !a.Field(i).Equal(b.Field(i)) {
				t.Errorf("Config.%s: sent %v, read %v: is it in wireFields?", name, b.Field(i), a.Field(i))
			}
		}
	}
	cmp(gv, cv, "")
}

func TestSerializeRefusesOutOfRange(t *testing.T) {
	tests := []struct {
		name string
		set  func(c *Config)
	}{
		{"negative latency", func(c *Config) { c.LatencyMs = -1 }},
		{"loss above 100 %", func(c *Config) { c.LossPercent = 100.5 }},
		{"NaN jitter", func(c *Config) { c.JitterMs = math.NaN() }},
		{"infinite cap", func(c *Config) { c.BandwidthKbps = math.Inf(1) }},
		{"burst loss 1000 %", func(c *Config) { c.Burst.BadLossPercent = 1000 }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Write the bad value directly, as a hostile sender would:
			// Serialize itself clamps what it writes.
			c := PresetWiFi.Config()
			tc.set(&c)
			w := wire.NewWriteStream(make([]byte, 512))
			for _, f := range c.wireFields() {
				switch {
				case f.f != nil:
					_ = wire.SerializeFloat64(w, f.f)
				case f.i != nil:
					v := int64(*f.i)
					_ = wire.SerializeInt(w, &v, int64(f.lo), int64(f.hi))
				default:
					_ = wire.SerializeBool(w, f.b)
				}
			}
			before := PresetDSL.Config()
			got := before
			err := got.Serialize(wire.NewReadStream(w.Bytes()))
			if !errors.Is(err, ErrInvalidConfig) {
				t.Fatalf("read %v, want ErrInvalidConfig", err)
			}
			if got != before {
				t.Fatal("a refused config changed the destination")
			}
		})
	}
	// Writing clamps: the reader always accepts what Serialize wrote.
	c := Config{LatencyMs: -5, LossPercent: 250, MTUBytes: 1 << 20}
	got := roundTripConfig(t, c)
	if got.LatencyMs != 0 || got.LossPercent != 100 || got.MTUBytes != 65535 {
		t.Fatalf("clamped write read back as %+v", got)
	}
}

func BenchmarkSerializeConfig(b *testing.B) {
	c := PresetDSL.Config()
	buf := make([]byte, 512)
	w := wire.NewWriteStream(buf)
	b.ReportAllocs()
	for b.Loop() {
		w.Reset(buf)
		_ = c.Serialize(w)
	}
}
