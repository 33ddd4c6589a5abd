package com.fasterxml.jackson.datatype.jdk8;

import com.fasterxml.jackson.databind.module.SimpleModule;

/**
 * Stands in for jackson-datatype-jdk8, which Debian does not package, so that Kafka's
 * message generator ({@code MessageGenerator} registers this module) compiles with
 * Debian's Jackson. The generator only reads message specs, whose creators take no
 * {@code Optional}, so the module has nothing to do; the generated sources are checked
 * by compiling them.
 */
public final class Jdk8Module extends SimpleModule {
    public Jdk8Module() {
        super("Jdk8Module-stand-in");
    }
}
