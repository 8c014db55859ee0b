module github.com/hpackcert/hpackcert

go 1.26.0

require (
	github.com/leanovate/gopter v0.2.11 // indirect
	golang.org/x/net v0.62.0 // indirect
)
