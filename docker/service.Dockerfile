# One image recipe for every service: docker-compose.yml passes the module's jar, built beforehand by
#   ./mvnw -DskipTests package
FROM eclipse-temurin:17-jre

ARG JAR_FILE
RUN groupadd --system erasure && useradd --system --gid erasure --no-create-home erasure
WORKDIR /app
COPY ${JAR_FILE} /app/service.jar

USER erasure
# the heap follows the container's memory limit instead of the host's
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/service.jar"]
