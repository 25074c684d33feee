// Command opamp-server is the OpAMP server Spanflight's smoke tests talk to: opamp-go's own server
// package (a released Go module, pinned in go.mod and go.sum; none of its source lives here) plus
// what a test needs to steer and observe it. It serves OpAMP over plain HTTP (or TLS) on -listen,
// path /v1/opamp, and a small admin HTTP API on -admin:
//
//	PUT    /config[?name=X]   the remote config: the request body, its Content-Type (entry X, default "spanflight")
//	DELETE /config            clears it: an empty config map, hash sha256("")
//	POST   /report-full-state the next reply to every agent carries flags ReportFullState
//	POST   /fault?mode=M      none | garbage (200, bytes that are no ServerToAgent) | http503 | reject401
//	GET    /agents            what each agent (by instance uid, hex) reported last, as JSON
//
// Stdout carries one ready line, "opamp-server ready <opamp-addr> admin <admin-addr>", then one JSON
// object per line for each AgentToServer: the message (protojson with proto field names: uint64 as
// strings, bytes as base64), its uid in hex, and a summary of the reply. It is built by
// bin/opamp-server.
package main

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/open-telemetry/opamp-go/protobufs"
	"github.com/open-telemetry/opamp-go/server"
	"github.com/open-telemetry/opamp-go/server/types"
	"google.golang.org/protobuf/encoding/protojson"
)

const (
	acceptsRemoteConfig = uint64(protobufs.AgentCapabilities_AgentCapabilities_AcceptsRemoteConfig)
	reportFullState     = uint64(protobufs.ServerToAgentFlags_ServerToAgentFlags_ReportFullState)
	serverCapabilities  = uint64(protobufs.ServerCapabilities_ServerCapabilities_AcceptsStatus |
		protobufs.ServerCapabilities_ServerCapabilities_OffersRemoteConfig |
		protobufs.ServerCapabilities_ServerCapabilities_AcceptsEffectiveConfig)
	maxAdminBody = 1 << 20
)

// agent is what the server remembers of one instance uid (GET /agents shows it).
type agent struct {
	LastSequenceNum    uint64            `json:"lastSequenceNum"`
	Messages           int               `json:"messages"`
	RemoteConfigStatus *configStatus     `json:"remoteConfigStatus,omitempty"`
	EffectiveConfig    map[string]string `json:"effectiveConfig,omitempty"`
	Health             string            `json:"health,omitempty"`
}

type configStatus struct {
	Hash         string `json:"hash"`
	Status       string `json:"status"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// state is everything the OpAMP and admin handlers share, under one mutex; it also orders the
// stdout lines.
type state struct {
	mu        sync.Mutex
	config    *protobufs.AgentRemoteConfig // nil until the first PUT or DELETE /config
	agents    map[string]*agent
	fullState bool            // since POST /report-full-state: ReportFullState in the next reply to each agent
	sentFull  map[string]bool // the agents that got that reply
	fault     string          // POST /fault
}

// onMessage records what one agent reported and answers it: the remote config while the hash the
// agent reported differs from the current one, ReportFullState after a gap in its sequence numbers.
func (s *state) onMessage(_ context.Context, _ types.Connection, m *protobufs.AgentToServer) *protobufs.ServerToAgent {
	s.mu.Lock()
	defer s.mu.Unlock()
	uid := hex.EncodeToString(m.InstanceUid)
	reply := &protobufs.ServerToAgent{InstanceUid: m.InstanceUid, Capabilities: serverCapabilities}
	a, known := s.agents[uid]
	if !known {
		a = &agent{}
		s.agents[uid] = a
	}
	if known && m.SequenceNum != a.LastSequenceNum+1 {
		reply.Flags |= reportFullState
	}
	if s.fullState && !s.sentFull[uid] {
		reply.Flags |= reportFullState
		s.sentFull[uid] = true
	}
	a.LastSequenceNum = m.SequenceNum
	a.Messages++
	if rcs := m.RemoteConfigStatus; rcs != nil {
		a.RemoteConfigStatus = &configStatus{hex.EncodeToString(rcs.LastRemoteConfigHash), rcs.Status.String(), rcs.ErrorMessage}
	}
	if ec := m.EffectiveConfig; ec != nil {
		a.EffectiveConfig = map[string]string{}
		for name, file := range ec.GetConfigMap().GetConfigMap() {
			a.EffectiveConfig[name] = string(file.GetBody())
		}
	}
	if m.Health != nil {
		a.Health = m.Health.Status
	}
	reported := ""
	if a.RemoteConfigStatus != nil {
		reported = a.RemoteConfigStatus.Hash
	}
	sentHash := ""
	if s.config != nil && m.Capabilities&acceptsRemoteConfig != 0 && reported != hex.EncodeToString(s.config.ConfigHash) {
		reply.RemoteConfig = s.config
		sentHash = hex.EncodeToString(s.config.ConfigHash)
	}
	s.print(m, uid, reply.Flags, sentHash)
	return reply
}

// print writes one JSON line to stdout (unbuffered in Go: the line is out when Write returns).
func (s *state) print(m *protobufs.AgentToServer, uid string, flags uint64, sentHash string) {
	message, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		log.Printf("cannot print an AgentToServer: %v", err)
		return
	}
	type reply struct {
		Flags            uint64 `json:"flags"`
		RemoteConfigHash string `json:"remoteConfigHash"`
	}
	// encoding/json compacts the raw message, so the object stays on one line.
	line := struct {
		AgentToServer json.RawMessage `json:"agentToServer"`
		UID           string          `json:"uid"`
		Reply         reply           `json:"reply"`
	}{message, uid, reply{flags, sentHash}}
	if err := json.NewEncoder(os.Stdout).Encode(line); err != nil {
		log.Printf("cannot print an AgentToServer: %v", err)
	}
}

// setConfig makes body the remote config, as entry name; a nil body clears it (an empty map).
func (s *state) setConfig(name string, body []byte, contentType string) string {
	hash := sha256.Sum256(body)
	config := &protobufs.AgentRemoteConfig{Config: &protobufs.AgentConfigMap{}, ConfigHash: hash[:]}
	if body != nil {
		config.Config.ConfigMap = map[string]*protobufs.AgentConfigFile{name: {Body: body, ContentType: contentType}}
	}
	s.mu.Lock()
	s.config = config
	s.mu.Unlock()
	return hex.EncodeToString(hash[:])
}

// faults answers OpAMP requests as the current fault mode says, before opamp-go sees them.
func (s *state) faults(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		fault := s.fault
		s.mu.Unlock()
		switch fault {
		case "garbage": // 0xff... is a varint that never ends: no protobuf decoder accepts it
			w.Header().Set("Content-Type", "application/x-protobuf")
			_, _ = w.Write([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
		case "http503":
			w.Header().Set("Retry-After", "1")
			w.WriteHeader(http.StatusServiceUnavailable)
		case "reject401":
			w.WriteHeader(http.StatusUnauthorized)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (s *state) adminHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /config", func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
		if err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
			return
		}
		name := r.URL.Query().Get("name")
		if name == "" {
			name = "spanflight"
		}
		fmt.Fprintln(w, s.setConfig(name, body, r.Header.Get("Content-Type")))
	})
	mux.HandleFunc("DELETE /config", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, s.setConfig("", nil, ""))
	})
	mux.HandleFunc("POST /report-full-state", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.fullState, s.sentFull = true, map[string]bool{}
		s.mu.Unlock()
	})
	mux.HandleFunc("POST /fault", func(w http.ResponseWriter, r *http.Request) {
		mode := r.URL.Query().Get("mode")
		switch mode {
		case "none", "garbage", "http503", "reject401":
			s.mu.Lock()
			s.fault = mode
			s.mu.Unlock()
		default:
			http.Error(w, "mode must be none, garbage, http503 or reject401", http.StatusBadRequest)
		}
	})
	mux.HandleFunc("GET /agents", func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		defer s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(s.agents)
	})
	return mux
}

// stderrLogger is opamp-go's logger: its errors to stderr, its debug lines nowhere.
type stderrLogger struct{}

func (stderrLogger) Debugf(context.Context, string, ...any) {}
func (stderrLogger) Errorf(_ context.Context, format string, v ...any) {
	log.Printf("opamp-go: "+format, v...)
}

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "OpAMP address (path /v1/opamp)")
	adminAddr := flag.String("admin", "127.0.0.1:0", "admin HTTP address")
	certFile := flag.String("tls-cert", "", "PEM certificate: serve OpAMP over TLS (with -tls-key)")
	keyFile := flag.String("tls-key", "", "PEM private key of -tls-cert")
	token := flag.String("token", "", "if set, OpAMP requests must carry Authorization: Bearer <token>")
	flag.Parse()

	s := &state{agents: map[string]*agent{}, sentFull: map[string]bool{}}
	settings := server.StartSettings{ListenEndpoint: *listen, HTTPMiddleware: s.faults}
	if *certFile != "" || *keyFile != "" {
		certificate, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			log.Fatalf("opamp-server: -tls-cert/-tls-key: %v", err)
		}
		settings.TLSConfig = &tls.Config{Certificates: []tls.Certificate{certificate}}
	}
	settings.Callbacks.OnConnecting = func(r *http.Request) types.ConnectionResponse {
		if *token != "" && r.Header.Get("Authorization") != "Bearer "+*token {
			return types.ConnectionResponse{Accept: false, HTTPStatusCode: http.StatusUnauthorized}
		}
		return types.ConnectionResponse{Accept: true, ConnectionCallbacks: types.ConnectionCallbacks{OnMessage: s.onMessage}}
	}
	opamp := server.New(stderrLogger{})
	if err := opamp.Start(settings); err != nil {
		log.Fatalf("opamp-server: OpAMP on %s: %v", *listen, err)
	}
	adminListener, err := net.Listen("tcp", *adminAddr)
	if err != nil {
		log.Fatalf("opamp-server: admin on %s: %v", *adminAddr, err)
	}
	admin := &http.Server{Handler: s.adminHandler(), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := admin.Serve(adminListener); err != http.ErrServerClosed {
			log.Fatalf("opamp-server: admin: %v", err)
		}
	}()
	fmt.Printf("opamp-server ready %s admin %s\n", opamp.Addr(), adminListener.Addr())

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	<-signals
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = admin.Shutdown(ctx)
	if err := opamp.Stop(ctx); err != nil {
		log.Printf("opamp-server: stop: %v", err)
	}
}
