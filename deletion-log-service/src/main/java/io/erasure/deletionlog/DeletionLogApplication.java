package io.erasure.deletionlog;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DeletionLogApplication {

    public static void main(String[] args) {
        SpringApplication.run(DeletionLogApplication.class, args);
    }
}
