package hpack

import "slices"

// field is package decoder's callback for the next field of the chunk:
// it gives the field its strings, sharing what can be shared, and stages
// it for flush. A field referencing a table entry takes the entry's
// strings; a field inserted into the table gets one string of its own for
// its literal name and value, which the table keeps; any other literal is
// appended to the chunk's text, one string for the whole chunk. As in
// x/net, a field's length is checked against the maximum string length
// even when it comes from the table, and a literal not inserted is not
// kept while emitting is off.
func (d *Decoder) field(name, value []byte, sensitive bool) error {
	if d.done >= len(d.fields) {
		return DecodingError{errOutOfStep}
	}
	f := &d.fields[d.done]
	f.sensitive = sensitive
	if d.maxStrLen > 0 {
		wanted := d.emitEnabled || f.kind != kindLiteral
		if (wanted || f.index != 0) && len(name) > d.maxStrLen || wanted && len(value) > d.maxStrLen {
			return ErrStringLength
		}
	}
	switch f.kind {
	case kindIndexed:
		f.name, f.value = d.table.entry(f.index)
	case kindIndexing:
		if f.index != 0 {
			f.name, _ = d.table.entry(f.index)
			f.value = string(value)
		} else {
			// One allocation for both: they are joined in the spare
			// room of the text buffer, which is only borrowed.
			d.text = slices.Grow(d.text, len(name)+len(value))
			s := string(append(append(d.text[len(d.text):], name...), value...))
			f.name, f.value = s[:len(name)], s[len(name):]
		}
		d.table.add(f.name, f.value, d.dec.TableLen())
	default:
		if f.index != 0 {
			f.name, _ = d.table.entry(f.index)
		}
		if d.emitEnabled {
			f.nameAt = len(d.text)
			if f.textName = f.index == 0; f.textName {
				d.text = append(d.text, name...)
			}
			f.valueAt = len(d.text)
			d.text = append(d.text, value...)
			f.end, f.textValue = len(d.text), true
		}
	}
	d.done++
	return nil
}

// flush emits the fields decoded from the chunk, or collects them for
// DecodeFull, while emitting is on; their text becomes one string.
func (d *Decoder) flush() {
	var text string
	if len(d.text) > 0 {
		text = string(d.text)
		d.text = d.text[:0]
	}
	for i := range d.done {
		// Emitting is turned off only by the emit function, and only it
		// could turn it on again.
		if !d.emitEnabled {
			break
		}
		f := &d.fields[i]
		hf := HeaderField{Name: f.name, Value: f.value, Sensitive: f.sensitive}
		if f.textName {
			hf.Name = text[f.nameAt:f.valueAt]
		}
		if f.textValue {
			hf.Value = text[f.valueAt:f.end]
		}
		switch {
		case d.collecting:
			if d.collected == nil {
				d.collected = make([]HeaderField, 0, len(d.fields))
			}
			d.collected = append(d.collected, hf)
		case d.emit != nil:
			d.emit(hf)
		}
	}
	// The staged strings go, so that the reused slice keeps none alive.
	clear(d.fields)
	d.done = 0
}
