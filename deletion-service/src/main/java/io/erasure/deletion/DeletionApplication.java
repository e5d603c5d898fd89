package io.erasure.deletion;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class DeletionApplication {

    public static void main(String[] args) {
        SpringApplication.run(DeletionApplication.class, args);
    }
}
