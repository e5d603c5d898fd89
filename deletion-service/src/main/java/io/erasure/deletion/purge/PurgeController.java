package io.erasure.deletion.purge;

import java.util.List;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/purge}: per dataset, whether its deleted rows may still be on disk (for the dashboard's
 * Datasets panel). Read-only: it names tables and nodes, never a row.
 */
@RestController
class PurgeController {

    private final PurgeWatch watch;

    PurgeController(PurgeWatch watch) {
        this.watch = watch;
    }

    @GetMapping("/api/purge")
    List<OnDisk> purge() {
        return watch.datasets();
    }
}
