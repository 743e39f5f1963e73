package canned

import "encoding/json"

// GraphQLGetPods is runpod-python's get_pods document (runpod.get_pods(),
// `runpod pod list`), exactly as runpod-python 1.12.0 sends it: every pod
// of the account with the fields it reads and more (machineId, dockerId,
// lastStatusChange, ...). graphql/testdata/clients/runpod-python/
// get_pods.graphql holds the same text (canned_test.go checks it).
const GraphQLGetPods = `
query myPods {
    myself {
        pods {
            id
            containerDiskInGb
            costPerHr
            desiredStatus
            dockerArgs
            dockerId
            env
            gpuCount
            imageName
            lastStatusChange
            machineId
            memoryInGb
            name
            podType
            port
            ports
            uptimeSeconds
            vcpuCount
            volumeInGb
            volumeMountPath
            runtime {
                ports{
                    ip
                    isIpPublic
                    privatePort
                    publicPort
                    type
                }
            }
            machine {
                gpuDisplayName
            }
        }
    }
}
`

// GraphQLGetPodsBody is the POST /graphql body runpod-python sends with
// GraphQLGetPods: {"query": ...}, nothing else.
var GraphQLGetPodsBody = func() string {
	b, _ := json.Marshal(map[string]string{"query": GraphQLGetPods})
	return string(b)
}()
