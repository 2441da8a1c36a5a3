const fs = require("fs"); // want "JS-LIB-P06"
import os = require("os"); // want "JS-LIB-P06"
import * as path from "path";
