package io.erasure.audit.join;

import io.erasure.model.candidate.Candidate;
import java.io.IOException;

/** Receives the rows a join found deletable, in part order. */
@FunctionalInterface
public interface CandidateSink {

    void accept(Candidate candidate) throws IOException;
}
