package io.fastclock.entry;

/**
 * Defines the helpers that define the agent's module (PrivateModule and its nested classes), on
 * first use: the entry asks {@link #REFUSAL} before it calls any of them. The answer is a final
 * field of a class the entry defined itself with the other helpers, so no code can change it; the JVM
 * runs this initialiser once. Code that defines a class of one of their names first (as
 * {@link AgentEntry} explains) makes the answer a refusal, for good: the entry then never calls them.
 */
final class ModuleHelpers {
    /** Null when the module's helpers are this jar's, defined here; else why the entry does nothing. */
    static final String REFUSAL = AgentEntry.defineHelpers(true);

    private ModuleHelpers() {}
}
