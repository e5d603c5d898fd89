package io.erasure.controlplane.control;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Component;

/**
 * At start-up, publishes again, signed, the state of every control scope whose newest message on
 * {@code erasure.control} is not signed with this control plane's key: messages written before signals were signed
 * (deletion reads those as stopped, for ever, until an operator flips the scope) and messages signed with a key since
 * rotated out (deletion stops the scope once it no longer trusts that key). Retries on its timer until it has gone
 * through every such scope once; a scope another replica re-published meanwhile is left alone.
 */
@Component
class ControlRepublisher {

    private static final Logger log = LoggerFactory.getLogger(ControlRepublisher.class);

    private final KillSwitches switches;
    private volatile boolean done;

    ControlRepublisher(KillSwitches switches) {
        this.switches = switches;
    }

    @Scheduled(initialDelay = 0, fixedDelayString = "${erasure.control-plane.control-republish-retry:30s}")
    void republishOnce() {
        if (done) {
            return;
        }
        try {
            int published = republishAll();
            done = true;
            if (published > 0) {
                log.info("re-published the control state of {} scope(s) signed", published);
            }
        } catch (RuntimeException e) {
            log.warn("control states not re-published signed yet ({}); retrying", e.toString());
        }
    }

    /** Re-publishes every scope whose newest message is not signed with this control plane's key; how many it did. */
    int republishAll() {
        int published = 0;
        for (String scope : switches.scopesNotSignedWithOwnKey()) {
            published += switches.republish(scope) ? 1 : 0;
        }
        return published;
    }
}
