package physics

import (
	"reflect"
	"testing"
)

// sameValue compares two values field by field, through structs, arrays,
// slices and pointers, treating a nil slice and an empty one as equal
// (copyWorld reuses backing arrays, so an empty slice may or may not be
// nil). It returns the path of the first difference, or "".
func sameValue(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := sameValue(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + " (length)"
		}
		for i := 0; i < a.Len(); i++ {
			if d := sameValue(a.Index(i), b.Index(i), path+"[]"); d != "" {
				return d
			}
		}
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return path
		}
		if !a.IsNil() {
			return sameValue(a.Elem(), b.Elem(), path)
		}
	case reflect.Float64, reflect.Float32:
		// Bits, not ==: NaN must equal NaN and −0 must differ from +0.
		if a.Float() != b.Float() && !(a.Float() != a.Float() && b.Float() != b.Float()) {
			return path
		}
	case reflect.Map, reflect.Func, reflect.Chan, reflect.Interface:
		return path + " (a " + a.Kind().String() + ": copyWorld cannot copy it)"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return path
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return path
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return path
		}
	default:
		return path + " (a " + a.Kind().String() + ": teach sameValue to compare it)"
	}
	return ""
}

// TestSaveRestoreCopiesEveryField steps one katamari world 60 steps, saves
// it, steps it 60 more and restores; a twin stepped only the first 60
// must then equal it in every field, scratch included. A field added to
// World (or to its parts) and forgotten in copyWorld fails here.
func TestSaveRestoreCopiesEveryField(t *testing.T) {
	a, pa := katamariWorld(t, 150, 0)
	b, pb := katamariWorld(t, 150, 0)
	step := func(w *World, p BodyID) {
		katamariPull(w, p)
		w.Step()
	}
	for i := 0; i < 60; i++ {
		step(a, pa)
		step(b, pb)
	}
	var s Saved
	a.Save(&s)
	for i := 0; i < 60; i++ {
		step(a, pa)
	}
	if d := sameValue(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "World"); d == "" {
		t.Fatal("the world did not change in 60 steps: the test proves nothing")
	}
	if err := a.Restore(&s); err != nil {
		t.Fatal(err)
	}
	if d := sameValue(reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem(), "World"); d != "" {
		t.Fatalf("after restore, %s differs from the world that was never saved", d)
	}
	for i := 0; i < 60; i++ {
		step(a, pa)
		step(b, pb)
		if a.StateHash() != b.StateHash() {
			t.Fatalf("step %d after restore: hashes differ", i+1)
		}
	}
}

func TestRestoreRefusesMismatch(t *testing.T) {
	w := restingGrid(t)
	var s Saved
	if err := w.Restore(&s); err != ErrNotSaved {
		t.Errorf("empty save: %v, want ErrNotSaved", err)
	}
	small := newWorld(t, DefaultConfig())
	small.Save(&s)
	if err := w.Restore(&s); err != ErrSavedMismatch {
		t.Errorf("foreign save: %v, want ErrSavedMismatch", err)
	}
}
