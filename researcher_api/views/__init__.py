"""The researcher API's views: parse, authorise through the selectors and services, answer."""
