package certify

import "github.com/hpackcert/hpackcert/vectors"

func rawDataTmp() ([]*vectors.Story, error) {
	return vectors.ReadStoryDir("/work/shared/hpack-test-case/raw-data")
}

const rawDataSourceTmp = "tmp raw-data"
