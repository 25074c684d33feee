/**
 * Fleet control over OpAMP (Open Agent Management Protocol), plain HTTP: the client that reports
 * the agent's description, health and effective configuration to an OpAMP server and takes a
 * remote configuration from it, and the protocol's protobuf messages it sends and reads ({@link
 * io.spanflight.internal.opamp.OpampMessages} and its records). The messages are hand-written on
 * {@code format.ProtoWriter} and {@code format.ProtoReader}, as the profile encoders are, so that
 * no third-party code ships in {@code spanflight.jar}; the Wire classes of the OpenTelemetry Java
 * contrib OpAMP client are a test-only oracle. A reply from the server is untrusted input: it is
 * bounded and read strictly.
 *
 * <p>Not API: internal to Spanflight.
 */
package io.spanflight.internal.opamp;
