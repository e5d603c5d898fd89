package io.erasure.controlplane.actions;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** The accountability trail, readable by every role. */
@RestController
@RequestMapping("/api/actions")
public class ActionsController {

    private final ActionsLog actions;

    public ActionsController(ActionsLog actions) {
        this.actions = actions;
    }

    @GetMapping
    public List<ActionsLog.Action> find(
            @RequestParam(required = false) String subject,
            @RequestParam(required = false) String actor,
            @RequestParam(defaultValue = "100") int limit) {
        return actions.find(subject, actor, limit);
    }
}
