package io.fastclock.decide;

/** A backend that can be used for a clock ({@link #choice}), or why not ({@link #whyNot}). */
final class Candidate {
    /** Null when the backend cannot be used. */
    final Choice choice;
    /** Null when it can. */
    final String whyNot;

    private Candidate(Choice choice, String whyNot) {
        this.choice = choice;
        this.whyNot = whyNot;
    }

    static Candidate yes(Choice choice) {
        return new Candidate(choice, null);
    }

    static Candidate no(String whyNot) {
        return new Candidate(null, whyNot);
    }
}
