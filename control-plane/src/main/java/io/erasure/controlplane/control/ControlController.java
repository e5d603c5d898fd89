package io.erasure.controlplane.control;

import io.erasure.support.access.CallerResolver;
import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Kill switches: {@code PUT /api/kill-switches/global} or {@code /api/kill-switches/<dataset>}. */
@RestController
public class ControlController {

    private final KillSwitches switches;
    private final CallerResolver callers;

    public ControlController(KillSwitches switches, CallerResolver callers) {
        this.switches = switches;
        this.callers = callers;
    }

    @GetMapping("/api/kill-switches")
    public List<KillSwitches.KillSwitch> list() {
        return switches.list();
    }

    @PutMapping("/api/kill-switches/{scope}")
    public KillSwitches.KillSwitch flip(@PathVariable String scope, @RequestBody Flip flip) {
        if (flip == null || flip.active() == null) {
            throw new IllegalArgumentException("active (true to stop deletion, false to resume) is required");
        }
        return switches.flip(scope, flip.active(), flip.reason(), callers.current());
    }

    public record Flip(Boolean active, String reason) {}
}
