package com.fasterxml.jackson.datatype.jdk8;

import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * A stand-in for jackson-datatype-jdk8 (not packaged by Debian), which Kafka's message
 * generator registers. The generator reads message specs only, none of which needs
 * {@code Optional} support, so an empty module is enough for it to run.
 */
public final class Jdk8Module extends SimpleModule {
    public Jdk8Module() {
        super("jdk8-stand-in");
    }
}
