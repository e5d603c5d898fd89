package io.erasure.audit;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

class AuditArchitectureTest {

    private final JavaClasses audit = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.erasure.audit", "io.erasure.backup.format");

    @Test
    void theAuditCannotReachALiveStore() {
        noClasses()
                .that()
                .resideInAnyPackage("io.erasure.audit..", "io.erasure.backup.format..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "com.datastax..",
                        "org.postgresql..",
                        "java.sql..",
                        "javax.sql..",
                        "redis.clients..",
                        "io.erasure.store..",
                        "io.erasure.support.stores..",
                        "io.erasure.backup.export..")
                .because("the audit reads S3 backups only (docs/design.md, invariant 6: offline audit); live state is"
                        + " re-checked by validation's bounded point reads, and exports are backup tooling,"
                        + " never part of a run")
                .check(audit);
    }
}
