import ArgumentParser
import App
print("x")
