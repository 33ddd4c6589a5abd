package org.pcollections;

/**
 * A name only, for javac. server-common's PCollectionsImmutableMap names this pcollections
 * class in its imports, fields and constructor; the vector harnesses never run that code,
 * and Debian does not package pcollections. Run refuses to load it.
 */
public interface HashPMap<K, V> {}
