package io.opentelemetry.proto.common.v1;

/**
 * A name only, for javac. Kafka's client telemetry names this OpenTelemetry protobuf class
 * in method signatures; the vector harnesses never run that code, and Debian does not
 * package opentelemetry-proto. Run refuses to load it.
 */
public final class AnyValue {}
