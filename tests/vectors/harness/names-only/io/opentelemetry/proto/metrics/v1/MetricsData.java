package io.opentelemetry.proto.metrics.v1;

/**
 * A name only, for javac. Kafka's client telemetry names this OpenTelemetry protobuf class
 * in method signatures; the vector harnesses never run that code, and Debian does not
 * package opentelemetry-proto. Run refuses to load it.
 */
public final class MetricsData {}
