# Shortcuts; the scripts are the source of truth (see README).
.PHONY: demo test build bench clean

demo:
	scripts/demo.sh

test:
	scripts/test.sh

build:
	scripts/setup.sh && swift build -c release

bench:
	bench/run-engine.sh

clean:
	rm -rf .build out
