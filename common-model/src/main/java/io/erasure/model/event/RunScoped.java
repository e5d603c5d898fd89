package io.erasure.model.event;

/** Marks payloads that only exist within a run: their envelope must carry the run id. */
public interface RunScoped {}
