module github.com/spanflight/spanflight/opamp-server

go 1.26.0

require (
	github.com/open-telemetry/opamp-go v0.23.0
	google.golang.org/protobuf v1.36.11
)

require github.com/gorilla/websocket v1.5.3 // indirect
