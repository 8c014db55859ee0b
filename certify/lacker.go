package certify

import "github.com/hpackcert/hpackcert/certify/lacks"

// Lacks is what an encoder's library cannot express, declared in advance
// (lacks.Lacks).
type Lacks = lacks.Lacks

// OctetRange is a range of octets a library refuses (lacks.OctetRange).
type OctetRange = lacks.OctetRange

// ParseLacks reads the lacks of an hpack-stdio hello (lacks.ParseLacks).
func ParseLacks(names []string, refuses [][2]int) (Lacks, error) {
	return lacks.ParseLacks(names, refuses)
}

// Lacker is implemented by targets that declare what their library cannot
// express: a stdio encoder whose hello declares lacks, an in-process one
// wrapped by Declare.
type Lacker interface{ Lacks() Lacks }

// Declare returns t with its lacks declared, for an in-process encoder
// (made by Func) whose library cannot express everything: the hello
// declaration of hpack-stdio, in Go. A stdio target declares its own.
func Declare(t Target, l Lacks) Target { return &declaredTarget{Target: t, lacks: l} }

type declaredTarget struct {
	Target
	lacks Lacks
}

func (d *declaredTarget) Lacks() Lacks { return d.lacks }

// InProcess marks the target as running in this process, as Func's are.
func (d *declaredTarget) InProcess() {}

// lacksOf returns what a target declares it cannot express.
func lacksOf(t Target) Lacks {
	if l, ok := t.(Lacker); ok {
		return l.Lacks()
	}
	return Lacks{}
}

// LackNames are the lacks' hpack-stdio names (lacks.LackNames).
var LackNames = lacks.LackNames
