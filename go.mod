module github.com/hpackcert/hpackcert

go 1.26.0

require (
	github.com/dvyukov/go-fuzz v0.0.0-20220726122315-1d375ef9f9f6
	github.com/leanovate/gopter v0.2.11
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	golang.org/x/net v0.62.0
)

require golang.org/x/text v0.43.0 // indirect
