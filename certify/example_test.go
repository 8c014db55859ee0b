package certify_test

import (
	"fmt"
	"log"

	"github.com/hpackcert/hpackcert/certify"
	"github.com/hpackcert/hpackcert/source/inprocess"
)

// Run certifies the built-in reference encoder on the §4 cases.
func ExampleRun() {
	ref, err := inprocess.Builtin("ref")
	if err != nil {
		log.Fatal(err)
	}
	defer ref.Close()
	rep, err := certify.Run([]certify.Target{ref}, certify.Options{Cases: []string{"enc/4."}, TrafficStories: 2})
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range rep.Cases {
		fmt.Println(c.ID, rep.Results["ref"][c.ID].Grade)
	}
	fmt.Println("failed:", rep.Failed())
	// Output:
	// enc/4.1/1 pass
	// enc/4.2/1 pass
	// enc/4.2/2 pass
	// enc/4.2/3 pass
	// enc/4.2/4 pass
	// enc/4.3/1 pass
	// enc/4.4/1 pass
	// enc/4.4/2 pass
	// failed: false
}
